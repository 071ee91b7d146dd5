"""Dates said in a turn, resolved against the turn's own time: the pattern table with its
calendar arithmetic, the direction a date without a year points, and the normalisation and
foresight the local extractor applies. Pure, standard library only.
"""
