"""Activation links: activations with learnable parameters."""
