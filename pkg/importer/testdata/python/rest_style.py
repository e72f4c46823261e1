"""reST (Sphinx) docstrings."""


def convert(amount, currency="EUR", rate=None):
    """Convert an amount of money. Use when prices are in another currency.

    Rates are fetched daily.

    :param amount: The amount to convert.
    :type amount: float
    :param str currency: The ISO code of the target currency.
    :param rate: A fixed rate instead of the daily one.
    :type rate: float or None
    :returns: The converted amount.
    :rtype: float
    :raises KeyError: If the currency is unknown.
    """
