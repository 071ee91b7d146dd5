"""The complexity estimate of a GraphQL document: how many fields it would resolve, at most.

Contract. Every list of objects in the schema is bounded, in one of two ways:

* it is *paged*: it takes a ``first`` (or ``limit``) argument whose default is in the schema and
  whose largest value is ``api_max_page_size`` (``kgmem.api.limits.page_size`` refuses more);
* it is *sized by the page above it* (:data:`BY_PARENT_PAGE`: a connection's ``nodes``, a
  recall's ``hits``; a write's receipts, sized by the request's own turns), or
* it holds a *small fixed vocabulary* (:data:`FIXED_LISTS`: the channels or factors of a hit),
  with the most items it can hold.

:func:`query_cost` walks a document with the schema's types: every field costs 1, and a list
multiplies the cost of its selection by its size — a paged list by its page (the literal value,
``variable_page``, the largest page, when it is a variable, or the argument's schema default when
it is omitted); a paged connection or union hands its page down to the list inside it; a fixed
list counts its bound. So nested pages multiply as they would at run time, and the estimate is
an upper bound that a graph with full pages reaches (the fault suite checks it within 2x of
the fields actually resolved). Introspection fields (``__schema``, ``__type``) are free: they are
bounded by the schema and GraphiQL needs them. :func:`complexity_rule` refuses a document whose
estimate is above the limit at validation time, before anything runs.
"""

from __future__ import annotations

from collections.abc import Mapping

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLInterfaceType,
    GraphQLList,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
    VariableNode,
    get_named_type,
    get_nullable_type,
)

from kgmem.recall.request import CHANNELS

PAGE_ARGUMENTS = ("first", "limit")

# Lists of objects sized by the page of the nearest paged field above them ("Type.field").
BY_PARENT_PAGE = frozenset(
    {
        "MemoryConnection.edges",  # memories(first)
        "MemoryConnection.nodes",
        "RecallOk.hits",  # recall(limit)
        "XrayReport.hits",
        "ObserveOk.receipts",  # observe(turns): the turns of the request, not a page
        "ObserveOk.skipped",
    }
)
# Lists of objects with a small fixed vocabulary, and the most items each can hold.
FIXED_LISTS: dict[str, int] = {
    "Hit.channels": len(CHANNELS),
    "HitExplanation.channels": len(CHANNELS),
    "HitExplanation.contributions": 12,  # the scoring factors
    "HitExplanation.factors": 12,
    "HitExplanation.path": 3,  # the graph channel's hops, plus the hit
    "XrayReport.timings": 12,  # the recall's stages
    "Stats.labels": 16,  # the node labels
    "Stats.statuses": 12,  # the memory statuses
    "Stats.relationships": 24,  # the relationship types
}


def page_argument(field: GraphQLField) -> tuple[str, int] | None:
    """The page argument of a field and its schema default, or None if it is not paged."""
    for name in PAGE_ARGUMENTS:
        arg = field.args.get(name)
        if arg is not None and isinstance(arg.default_value, int):
            return name, arg.default_value
    return None


def _literal_page(node: FieldNode, names: tuple[str, ...], variable_page: int) -> int | None:
    for arg in node.arguments or ():
        if arg.name.value in names:
            if isinstance(arg.value, IntValueNode):
                return max(1, int(arg.value.value))
            if isinstance(arg.value, VariableNode):
                return variable_page
    return None


def _pages(
    node: FieldNode,
    parent: GraphQLNamedType | None,
    field: GraphQLField | None,
    carried: int,
    variable_page: int,
) -> tuple[int, int]:
    """(multiplier of the field's selection, page carried down to the lists inside it)."""
    if field is None or parent is None:  # not in the schema: cost it by its arguments alone
        return _literal_page(node, PAGE_ARGUMENTS, variable_page) or 1, 1
    key = f"{parent.name}.{node.name.value}"
    is_list = isinstance(get_nullable_type(field.type), GraphQLList)
    paged = page_argument(field)
    if paged is not None:
        page = _literal_page(node, (paged[0],), variable_page) or paged[1]
        # a paged list multiplies its own selection; a paged connection or union hands the page
        # down to the list inside it that the page sizes (BY_PARENT_PAGE)
        return (page, 1) if is_list else (1, page)
    if key in BY_PARENT_PAGE:
        return carried, 1
    if key in FIXED_LISTS:
        return FIXED_LISTS[key], 1
    return 1, (1 if is_list else carried)


def _field(parent: GraphQLNamedType | None, name: str) -> GraphQLField | None:
    if isinstance(parent, GraphQLObjectType | GraphQLInterfaceType):
        field: GraphQLField | None = parent.fields.get(name)
        return field
    return None


def query_cost(
    selection_set: SelectionSetNode | None,
    parent: GraphQLNamedType | None,
    schema: GraphQLSchema,
    fragments: Mapping[str, FragmentDefinitionNode],
    variable_page: int,
    seen: frozenset[str] = frozenset(),
    carried: int = 1,
) -> int:
    """Estimated field resolutions of a selection on ``parent`` (see the module docstring).

    A field the schema lacks is costed without types (another rule refuses it anyway); the
    members of a union are all counted, as if each could be the one that answers."""
    if selection_set is None:
        return 0
    total = 0
    for node in selection_set.selections:
        if isinstance(node, FieldNode):
            if node.name.value.startswith("__"):
                continue
            field = _field(parent, node.name.value)
            inner_type = get_named_type(field.type) if field is not None else None
            times, down = _pages(node, parent, field, carried, variable_page)
            inner = query_cost(
                node.selection_set, inner_type, schema, fragments, variable_page, seen, down
            )
            total += 1 + times * inner
        elif isinstance(node, InlineFragmentNode):
            on = node.type_condition
            typed = schema.get_type(on.name.value) if on is not None else parent
            total += query_cost(
                node.selection_set, typed, schema, fragments, variable_page, seen, carried
            )
        elif isinstance(node, FragmentSpreadNode):
            name = node.name.value
            fragment = fragments.get(name)
            if fragment is not None and name not in seen:  # cycles are another rule's error
                typed = schema.get_type(fragment.type_condition.name.value)
                total += query_cost(
                    fragment.selection_set,
                    typed,
                    schema,
                    fragments,
                    variable_page,
                    seen | {name},
                    carried,
                )
    return total


def operation_cost(
    operation: OperationDefinitionNode,
    schema: GraphQLSchema,
    fragments: Mapping[str, FragmentDefinitionNode],
    variable_page: int,
) -> int:
    root = schema.get_root_type(operation.operation)
    return query_cost(operation.selection_set, root, schema, fragments, variable_page)


def complexity_rule(max_cost: int, variable_page: int) -> type[ValidationRule]:
    class ComplexityLimit(ValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            definitions = context.document.definitions
            fragments = {
                d.name.value: d for d in definitions if isinstance(d, FragmentDefinitionNode)
            }
            for op in definitions:
                if not isinstance(op, OperationDefinitionNode):
                    continue
                cost = operation_cost(op, context.schema, fragments, variable_page)
                if cost > max_cost:
                    context.report_error(
                        GraphQLError(
                            f"the query would resolve about {cost} fields; the limit is "
                            f"{max_cost}: ask for smaller pages or fewer nested fields",
                            extensions={"code": "query_too_complex"},
                        )
                    )

    return ComplexityLimit
