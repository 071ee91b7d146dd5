"""The kinds of thing a person has a favourite of, and the words that name each kind.

A favourite is keyed by its kind (``favourite:food``): "Thai is Diego's favourite cuisine" and
"Ethiopian food has become Diego's favourite" speak of one favourite, so the words that name one
kind ("cuisine", "food", "dish") give one key. A favourite said without its kind ("Fleetwood Mac
is Zainab's absolute favourite") takes the kind whose words are nearest to the value
(``kgmem.core.kind_guess``), when one is clearly nearest. Extending the vocabulary is adding a
kind or a word here; a kind word not listed keeps its own key. Pure data, no I/O.
"""

from __future__ import annotations

# kind -> the words that name it (the first is the kind's own word). A kind is one favourite a
# person keeps at a time; words for different things a person keeps side by side ("song" and
# "band", "book" and "author") stay different kinds. A narrower kind of one listed ("dessert",
# "snack") keys its own word when said and is left out here: as a guess it would take values of
# the wider kind ("sushi" is near "snack" as near as "food").
FAVOURITE_KINDS: dict[str, tuple[str, ...]] = {
    "food": ("food", "cuisine", "dish", "meal"),
    "music": ("band", "singer", "musician", "artist", "group"),
    "song": ("song", "track"),
    "show": ("show", "tv show", "series", "sitcom"),
    "film": ("film", "movie"),
    "book": ("book", "novel"),
    "author": ("author", "writer"),
    "colour": ("colour", "color"),
    "team": ("team", "sports team", "football club"),
    "sport": ("sport",),
    "game": ("game", "video game", "board game"),
    "drink": ("drink", "beverage"),
    "place": ("place", "city", "country"),
    "restaurant": ("restaurant", "cafe"),
    "hobby": ("hobby", "pastime", "craft"),
    "season": ("season",),
    "instrument": ("instrument", "musical instrument"),
    "actor": ("actor", "actress"),
    "podcast": ("podcast",),
    "animal": ("animal",),
}
