"""Tapete's game SDK: the contract every game's rules library implements, and the tools around it.

* :mod:`tapete_sdk.plugin`: the contract (:class:`~tapete_sdk.plugin.GameRules`), its errors, options, outcomes,
  canonical actions and :func:`~tapete_sdk.plugin.replay`;
* :mod:`tapete_sdk.conformance`: the shared conformance suite every game must pass;
* :mod:`tapete_sdk.registry`: the installed games by key, and :func:`~tapete_sdk.registry.discover`.

Pure Python, standard library only: no Django, no I/O. The site (the turn engine) and the games depend on it;
it depends on nothing.
"""
