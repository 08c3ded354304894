"""fleet's logger (Paddle's fleet.utils.log_util): INFO and above to stderr as
`[time] [LEVEL] file:line - message`, not propagated to the root logger."""
import logging

__all__ = []


def _get_logger(level, name):
    logger = logging.getLogger(name)
    logger.propagate = False
    if not logger.handlers:
        handler = logging.StreamHandler()
        logger.setLevel(level)
        handler.setFormatter(logging.Formatter("[%(asctime)-15s] [%(levelname)8s] %(filename)s:%(lineno)s - "
                                               "%(message)s"))
        logger.addHandler(handler)
    return logger


logger = _get_logger("INFO", "paddle.distributed.fleet.utils.log_util")


def set_log_level(level):
    if isinstance(level, bool) or not isinstance(level, (str, int)):
        raise AssertionError("level's type must be str or int")
    logger.setLevel(level if isinstance(level, int) else level.upper())


def get_log_level_code():
    return logger.getEffectiveLevel()


def get_log_level_name():
    return logging.getLevelName(get_log_level_code())
