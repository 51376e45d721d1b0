"""Learning environments on the LudoGame engines (PettingZoo's AEC API).

``LudoGame.envs.onitama_v0``: two-player Onitama with a movable wall. The environments need
the optional packages ``numpy``, ``gymnasium`` and ``pettingzoo``; ``import LudoGame`` does
not.
"""
