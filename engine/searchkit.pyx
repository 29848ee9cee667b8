"""The Python face of a search's limits, shared by engine.search.Searcher and
engine.aleacore.AleaCore (the inline helpers both searches use are in searchkit.pxd)."""
from engine.clock cimport now


cdef class SearchLimits:
    """Limits and counters of one search, over the subclass's ``LimitsRec``.

    ``stop()`` may be called from any thread (the protocol's); everything else by the
    thread that runs the search.
    """

    def set_limits(self, double seconds=0.0, long long nodes=0):
        """Hard limits for what follows: seconds from now (0: none) and total nodes (0: none)."""
        self.lim.deadline = now() + seconds if seconds > 0 else 0.0
        self.lim.node_limit = nodes if nodes > 0 else 0

    def stop(self):
        self.lim.stop = 1

    def resume(self, double seconds):
        """Clear a stop and allow ``seconds`` more, with no node limit: the emergency
        depth-1 search that replaces "the first generated move" when a search was stopped
        before depth 1."""
        self.lim.stop = 0
        self.set_limits(seconds, 0)

    @property
    def stopped(self) -> bool:
        return self.lim.stop != 0

    @property
    def nodes(self) -> int:
        return self.lim.nodes

    @property
    def seldepth(self) -> int:
        return self.lim.seldepth
