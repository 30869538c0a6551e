"""Encoders: one formulation per module, each with its pure encode and its decode function."""
