"""Nested arguments and results (lists, tuples, named tuples, dicts) flattened to leaves and rebuilt."""


def _map(tree, is_leaf, fn):
    """`tree` with each leaf replaced by fn(leaf), containers rebuilt in order."""
    if is_leaf(tree):
        return fn(tree)
    if isinstance(tree, (list, tuple)):
        items = [_map(e, is_leaf, fn) for e in tree]
        return type(tree)(*items) if hasattr(tree, "_fields") else type(tree)(items)
    if isinstance(tree, dict):
        return type(tree)((k, _map(e, is_leaf, fn)) for k, e in tree.items())
    return tree


def flatten(tree, is_leaf):
    """([leaves where is_leaf], rebuild): rebuild(new_leaves) is `tree` with those leaves replaced."""
    if is_leaf(tree):  # one leaf (a function's single result): nothing to rebuild around it
        return [tree], _first
    leaves = []

    def take(leaf):
        leaves.append(leaf)
        return _Slot(len(leaves) - 1)

    template = _map(tree, is_leaf, take)
    return leaves, lambda new: _map(template, lambda v: isinstance(v, _Slot), lambda s: new[s.index])


def _first(leaves):
    return leaves[0]


class _Slot:
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index
