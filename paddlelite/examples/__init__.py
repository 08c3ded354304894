"""Runnable examples: python -m paddlelite.examples.train"""
