"""The Python functions ops call by id: py_func's forward and backward, static_pylayer's backward.

As in Paddle, the op's attrs hold an int id into a table of the process (plain data, so a program stays
printable and serialisable). An id is only good for the table that issued it: a negative, out-of-range or
non-int id is an error naming the op and the attribute (never a Python index from the end), and an op that
refers to a function cannot come from a file (`register_op(..., callable_attrs=...)`, checked by the
inference-model loader): a loaded file never chooses code to run.
"""
import threading

NO_FUNCTION = -1  # the id of "no function" (a py_func without backward_func, a pylayer without backward_fn)


class CallableTable:
    """The functions registered for one purpose in this process, by the ids `register` handed out."""

    def __init__(self, purpose):
        self.purpose = purpose
        self._functions = []
        self._lock = threading.Lock()

    def register(self, fn):
        with self._lock:
            self._functions.append(fn)
            return len(self._functions) - 1

    def get(self, fn_id, op_type, attr):
        if type(fn_id) is not int or not 0 <= fn_id < len(self._functions):
            raise ValueError(f"{op_type}: attribute '{attr}' is {fn_id!r:.40}, which is not the id of a "
                             f"{self.purpose} registered in this process")
        return self._functions[fn_id]
