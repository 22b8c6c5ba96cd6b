class ExportError(ValueError):
    """An export refused: the message names the object and the fix."""
