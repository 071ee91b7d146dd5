"""Dates said in a text, resolved against a reference time: the pattern table with its
calendar arithmetic, the direction a date without a year points, and the normalisation and
foresight the local extractor applies (against the turn's own time); recall reads the period a
question names with the same table (against the time it is asked). Pure, standard library only.
"""
