"""Optimizers and learning-rate schedulers."""
