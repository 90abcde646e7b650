"""The read side: views of a match for a viewer, now or as of any round, and the materialized
projections (public views, inboxes, host dashboards, standings, audit rows) the service serves."""
