"""Claim support: does the cited source say what the sentence claims? Pure and offline."""
