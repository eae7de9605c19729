"""Research environments over the engine's step API (the ``[research]`` extra).

* :mod:`mushka.research.openspiel`: OpenSpiel games ``mushka_classic``,
  ``mushka_mistigri``, ``mushka_kopilka`` (registered on import);
* :mod:`mushka.research.pettingzoo_env`: a PettingZoo AEC environment;
* :mod:`mushka.research.gymnasium_env`: a Gymnasium single-seat environment
  with the other seats played by mushka's bots;
* :mod:`mushka.research.rlcard_env`: RLCard environments ``mushka-classic``,
  ``mushka-mistigri``, ``mushka-kopilka`` (registered on import).

Each module imports its framework; import the one you use.  The rules core
never imports this package (``docs/research.md``).
"""
