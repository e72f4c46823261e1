"""NumPy-style docstrings."""


def moving_average(values, window=3, center=False):
    """Compute a moving average of a series.

    The first window-1 values are dropped. Use when smoothing a series.

    Parameters
    ----------
    values : list of float
        The series.
    window : int, optional
        The window length.
    center : bool, default False
        Center the window.

    Returns
    -------
    list of float
        The averages.

    Raises
    ------
    ValueError
        If the window is longer than the series.

    Notes
    -----
    This keeps no state.
    """


def pick(color):
    """Pick a color. Use when a color is needed.

    Parameters
    ----------
    color : {'red', 'green'}
        The color.
    """
