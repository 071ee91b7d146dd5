"""Hard forget's naming rule (kgmem/lifecycle/erasure.py): an entity that outlives an erasure
keeps only the names a surviving memory still says. The graph side (which names are still said,
what is erased) is tested against Neo4j in tests/fault/test_fault_forget.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kgmem.core.text import normalize_name
from kgmem.lifecycle.erasure import ErasureScope, SharedEntity, rename, renames


def entity(
    name: str,
    aliases: tuple[str, ...],
    said: set[str],
    surfaces: tuple[str, ...] = (),
) -> SharedEntity:
    return SharedEntity("e1", name, aliases, frozenset(said), surfaces)


def test_every_name_still_said_changes_nothing() -> None:
    assert rename(entity("Priya Nair", ("Priya Nair", "Priya"), {"Priya Nair", "Priya"})) is None


def test_an_alias_only_the_erased_memory_said_is_dropped() -> None:
    out = rename(entity("Tom Baker", ("Tom Baker", "Tommy"), {"Tom Baker"}))
    assert out is not None and not out.renamed
    assert (out.name, out.aliases, out.aliases_norm) == (
        "Tom Baker",
        ("Tom Baker",),
        ("tom baker",),
    )


def test_a_name_no_survivor_says_gives_way_to_an_alias_that_one_does() -> None:
    out = rename(entity("Priya Nair", ("Priya Nair", "Priya"), {"Priya"}))
    assert out is not None and out.renamed
    assert (out.name, out.normalized_name, out.first_token) == ("Priya", "priya", "priya")
    assert out.aliases == ("Priya",) and out.aliases_norm == ("priya",)


def test_with_no_alias_said_the_survivors_surface_names_it() -> None:
    out = rename(entity("Priya Nair", ("Priya Nair",), set(), ("Dr. Priya",)))
    assert out is not None and out.renamed
    assert out.name == "Dr. Priya" and out.normalized_name == normalize_name("Dr. Priya")


def test_with_nothing_else_to_call_it_the_entity_keeps_its_name() -> None:
    assert rename(entity("Priya Nair", ("Priya Nair",), set(), ("", "  "))) is None


def test_the_scope_reads_its_row_and_plans_only_the_entities_that_change() -> None:
    row = {
        "status": "active",
        "ids": ["m1", "m2", "m1"],
        "shared": [
            {"id": "a", "name": "Tom", "aliases": ["Tom"], "said": ["Tom"], "surfaces": []},
            {"id": "b", "name": "Priya Nair", "aliases": ["Priya Nair", "Priya"],
             "said": ["Priya"], "surfaces": ["Priya"]},
        ],
    }  # fmt: skip
    scope = ErasureScope.of("m1", row)
    assert scope.ids == ("m1", "m2") and scope.status == "active"
    assert [(n.id, n.name) for n in renames(scope)] == [("b", "Priya")]


NAMES = st.text(alphabet=st.sampled_from("abcdeXYZ '.-"), min_size=1, max_size=12)


@given(
    name=NAMES,
    aliases=st.lists(NAMES, max_size=5, unique=True),
    said_mask=st.lists(st.booleans(), min_size=6, max_size=6),
    surfaces=st.lists(NAMES, max_size=3),
)
def test_what_stays_is_only_what_survivors_say(
    name: str, aliases: list[str], said_mask: list[bool], surfaces: list[str]
) -> None:
    candidates = [name, *aliases]
    said = {n for n, keep in zip(candidates, said_mask, strict=False) if keep}
    e = entity(name, tuple(aliases), said, tuple(surfaces))
    out = rename(e)
    if out is None:  # nothing to change, or nothing a survivor offers as a name
        assert set(aliases) <= said or not (
            said & set(aliases) or any(map(normalize_name, surfaces))
        )
        return
    offered = said | set(surfaces)
    assert out.name in offered
    assert out.name in out.aliases
    assert set(out.aliases) <= offered
    assert set(out.aliases) - {out.name} <= said  # no alias only the erased memories said
    norms = (normalize_name(a) for a in out.aliases)
    assert out.aliases_norm == tuple(dict.fromkeys(n for n in norms if n))
    assert out.normalized_name == normalize_name(out.name)
    assert out.renamed == (out.name != name)
