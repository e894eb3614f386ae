"""Model links: chains that structure whole models."""
