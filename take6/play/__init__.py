"""Playing games: bot policies, whole games between bots, and the fast simulation path."""
