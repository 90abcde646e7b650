"""The read side: views of a match for a viewer, as of now or of any round."""
