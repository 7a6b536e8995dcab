"""The one exception type the CLI turns into a one-line error.

Modules raise a subclass of MpimarkError when the user can do something
about the problem; the message is the whole line after `mpimark: error: `,
so it names the problem and the fix. Anything else reaching the CLI is a bug.
"""


class MpimarkError(Exception):
    """A problem the user can fix; str(exc) is the line shown to them."""
