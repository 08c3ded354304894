"""paddle.pir: the one name of Paddle's new IR that legacy-IR code touches. paddlelite builds legacy-IR programs
only (pir_utils.py), so nothing here is a PIR Value; Paddle code written for both IRs tests
`isinstance(x, (Variable, paddle.pir.Value))`, and the legacy branch is the one it takes."""


class Value:
    """Paddle's PIR value class: no paddlelite object is one (its programs hold legacy-IR Variables)."""

    def __init__(self, *args, **kwargs):
        raise TypeError("paddle.pir.Value: paddlelite builds legacy-IR programs only (static Variables); there are "
                        "no PIR values to create")


__all__ = ["Value"]
