"""paddle.utils.try_import: a module some paddle functions need only if used, with an install hint if missing."""
import importlib


def try_import(module_name, err_msg=None):
    """The module `module_name`, or ImportError saying which package to pip-install."""
    install_name = "opencv-python" if module_name == "cv2" else module_name.split(".")[0]
    try:
        return importlib.import_module(module_name)
    except ImportError:
        raise ImportError(err_msg or f"Failed importing {module_name}. This likely means that some paddle modules "
                          "require additional dependencies that have to be manually installed (usually with "
                          f"`pip install {install_name}`). ") from None
