"""The functional tensor API (paddle.add, paddle.matmul, ...): every function only calls the dispatcher."""
