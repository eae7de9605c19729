"""Hidden worlds: full deals a seat cannot tell from the one it sees.

Search over imperfect information needs whole deals drawn from what one
seat knows.  This package holds everything about drawing them, between the
rules core (which it reads and replays) and the bots (which weigh them):

* :mod:`mushka.worlds.facts`: the one reading of a seat's view into facts
  (cards seen, voids and holdings shown, declarations, the kopilka
  redistribution and draws);
* :mod:`mushka.worlds.fill`: hidden places filled with cards under bans, caps
  and demands, the deck stacked from dealt hands (N4), and
  :class:`~mushka.worlds.fill.WorldFailed`, the one failure of a proposal;
* :mod:`mushka.worlds.trump`: the classic and mistigri proposal, with a hook
  for a preference among worlds (the bots' belief);
* :mod:`mushka.worlds.kopilka`: the kopilka proposal, built backwards (K6-K16);
* :mod:`mushka.worlds.sampler`: :class:`~mushka.worlds.sampler.ViewSampler`,
  worlds drawn from the proposals and proven on the engine's fast path, the
  sampler the search bots believe on top of (:mod:`mushka.bots.sampler`);
* :mod:`mushka.worlds.resample`: the resampler of the research environments,
  every proposal proven by a checked replay of the seat's events.

The bots' sampler and the research resampler share the facts, the filling
and the kopilka proposal.  Standard library only; compiled with the rules
core.
"""
