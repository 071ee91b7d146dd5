"""The topics step's rules: communities of the memory–entity graph → a named topic tree.

Contract, pure: ``plan_topics`` takes every node of the namespace's memory–entity projection with
the community GDS Louvain put it in, keeps the communities holding at least ``min_members``
memories (the largest ``max_topics`` of them keeps a budget of 256 leaves) and names
each by its top terms: the names of its most mentioned entities, then its most frequent content
words (the local naming; the runner asks an LLM for new topics' names when one is configured).
``plan_parents`` builds the level above: the same graph partitioned at a coarser resolution
(Leiden, lower γ) puts each leaf under the coarse community holding most of its memories; a
coarse community over two or more leaves — but not over every leaf, which would say nothing — is
a parent topic that contains them (the topic tree, two levels). A topic's id is derived
from its namespace and member ids (a parent's from its children's ids), so the same community is
the same topic on every run and ``diff_topics`` can tell a rebuild that changes nothing (a second
run) from one that does; a name the LLM gave is kept (``keep``) while the topic lives.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from kgmem.core.text import content_words, normalize_name

MIN_MEMBERS = 3
MAX_TOPICS = 256  # the LEAF_BUDGET
NAME_TERMS = 3


@dataclass(frozen=True)
class CommunityNode:
    kind: str  # "memory" | "entity"
    id: str
    text: str  # a memory's content or an entity's name
    community: int
    mentions: int = 0  # an entity's mention count (0 for memories)


@dataclass(frozen=True)
class TopicPlan:
    id: str
    name: str
    terms: tuple[str, ...]
    members: tuple[str, ...]  # memory ids, sorted (a parent: every memory of its children)
    entities: tuple[str, ...]  # entity ids, sorted
    children: tuple[str, ...] = ()  # a parent's child topic ids, sorted
    level: int = 0  # 0 = a leaf (memories are IN_TOPIC of it), 1 = a parent

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def summary(self) -> str:
        return f"{self.size} memories about {', '.join(self.terms) or 'misc'}"


def topic_id(namespace: str, members: Sequence[str]) -> str:
    digest = hashlib.sha1("\n".join([namespace, *sorted(members)]).encode()).hexdigest()
    return f"topic-{digest[:20]}"


def top_terms(
    entities: Sequence[CommunityNode], texts: Callable[[], Sequence[str]], n: int
) -> list[str]:
    """Entity names by mentions, then content words by frequency, without repeats; ``texts``
    is called only when the entities give fewer than ``n`` terms."""
    terms: list[str] = []
    seen: set[str] = set()
    for e in sorted(entities, key=lambda e: (-e.mentions, e.text.casefold(), e.id)):
        key = normalize_name(e.text)
        if key and key not in seen:
            terms.append(e.text)
            seen.add(key)
            seen.update(key.split())
    if len(terms) >= n:  # the entities name it: no member text need be read
        return terms[:n]
    words: Counter[str] = Counter()
    for text in texts():
        words.update(set(content_words(text)))
    for word, _count in sorted(words.items(), key=lambda kv: (-kv[1], kv[0])):
        if len(terms) >= n:
            break
        if word not in seen:
            terms.append(word)
            seen.add(word)
    return terms[:n]


def _reader(members: Sequence[CommunityNode], wanted: set[str] | None) -> Callable[[], list[str]]:
    def read() -> list[str]:
        if wanted is not None:  # the caller learns whose texts naming read
            wanted.update(m.id for m in members)
        return [m.text for m in members]

    return read


def plan_topics(
    namespace: str,
    nodes: Iterable[CommunityNode],
    *,
    min_members: int = MIN_MEMBERS,
    max_topics: int = MAX_TOPICS,
    wanted: set[str] | None = None,
) -> list[TopicPlan]:
    """The leaf topics; the ids of the memories whose texts the naming read are added to
    ``wanted`` (so a caller can plan without texts, fetch those and plan again)."""
    memories: dict[int, list[CommunityNode]] = {}
    entities: dict[int, list[CommunityNode]] = {}
    for node in nodes:
        (memories if node.kind == "memory" else entities).setdefault(node.community, []).append(
            node
        )
    plans: list[TopicPlan] = []
    for community, members in memories.items():
        if len(members) < min_members:
            continue
        ents = entities.get(community, [])
        terms = tuple(top_terms(ents, _reader(members, wanted), NAME_TERMS))
        ids = tuple(sorted(m.id for m in members))
        plans.append(
            TopicPlan(
                topic_id(namespace, ids),
                ", ".join(terms) or "misc",
                terms,
                ids,
                tuple(sorted(e.id for e in ents)),
            )
        )
    plans.sort(key=lambda p: (-p.size, p.name, p.id))
    return plans[:max_topics]


@dataclass(frozen=True)
class TopicDiff:
    create: list[TopicPlan]
    remove: list[str]
    rename: list[TopicPlan]

    @property
    def empty(self) -> bool:
        return not (self.create or self.remove or self.rename)


def diff_topics(
    desired: Sequence[TopicPlan], existing: Mapping[str, str], keep: frozenset[str] = frozenset()
) -> TopicDiff:
    """What turns the stored topics (id → name) into ``desired``; topics in ``keep`` keep their
    stored name."""
    want = {p.id: p for p in desired}
    return TopicDiff(
        create=[p for p in desired if p.id not in existing],
        remove=sorted(tid for tid in existing if tid not in want),
        rename=[
            p for p in desired if p.id in existing and p.id not in keep and existing[p.id] != p.name
        ],
    )


def plan_parents(
    namespace: str,
    leaves: Sequence[TopicPlan],
    nodes: Iterable[CommunityNode],
    coarse: Mapping[str, int],
    *,
    wanted: set[str] | None = None,
) -> list[TopicPlan]:
    """Parent topics over ``leaves`` from ``coarse`` (memory id → coarse community); ``wanted``
    as for :func:`plan_topics`."""
    by_parent: dict[int, list[TopicPlan]] = {}
    for leaf in leaves:
        votes = Counter(coarse[m] for m in leaf.members if m in coarse)
        if votes:
            best = min(votes, key=lambda c: (-votes[c], c))
            by_parent.setdefault(best, []).append(leaf)
    text = {n.id: n for n in nodes}
    parents: list[TopicPlan] = []
    for children in by_parent.values():
        if len(children) < 2 or len(children) == len(leaves):
            continue
        kids = tuple(sorted(c.id for c in children))
        ents = sorted({e for c in children for e in c.entities})
        members = tuple(sorted({m for c in children for m in c.members}))
        terms = tuple(
            top_terms(
                [text[e] for e in ents if e in text],
                _reader([text[m] for m in members if m in text], wanted),
                NAME_TERMS,
            )
        )
        digest = hashlib.sha1("\n".join([namespace, "parent", *kids]).encode()).hexdigest()
        parents.append(
            TopicPlan(
                f"topic-{digest[:20]}",
                ", ".join(terms) or "misc",
                terms,
                members,
                tuple(ents),
                kids,
                1,
            )
        )
    parents.sort(key=lambda p: (-p.size, p.name, p.id))
    return parents


def plan_tree(
    namespace: str,
    nodes: Sequence[CommunityNode],
    coarse: Mapping[str, int],
    *,
    wanted: set[str] | None = None,
) -> list[TopicPlan]:
    """The leaves, then the parents over them when there are three leaves or more (a tree
    needs leaves to group, and more than one group)."""
    desired = plan_topics(namespace, nodes, wanted=wanted)
    if len(desired) >= 3:
        desired += plan_parents(namespace, desired, nodes, coarse, wanted=wanted)
    return desired
