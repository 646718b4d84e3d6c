"""The composition root: the command line, the server and the one ``main()`` of Card Table Companion.

Only this package reaches every layer (``views``, ``companion``, ``storage``); nothing imports it back.
"""
