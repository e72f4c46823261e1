"""Google-style docstrings."""


def search_books(query: str, limit: int = 10, exact: bool = False) -> list[str]:
    """Search the catalogue for books.

    Matches titles and authors, newest first. Use when the user asks
    for a book by title or author.

    Args:
        query: The words to look for.
        limit: How many titles to return,
            at most 50.
        exact (bool): Match the whole title only.

    Returns:
        list[str]: The matching titles.

    Raises:
        ValueError: If the query is empty.
        TimeoutError: If the catalogue does not answer.

    Examples:
        >>> search_books("dune")
        ['Dune']
    """
    return []


def untyped_google(path, mode="r"):
    """Open a file by path. Use when a tool needs a file's text.

    Args:
        path (str): The file to open.
        mode (str, optional): The open mode. Defaults to "r".
    """
