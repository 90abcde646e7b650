"""What an auditor checks offline: Merkle proofs, signed checkpoints, the host's keys."""
