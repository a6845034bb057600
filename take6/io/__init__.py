"""Files of games and positions: game records (write, load, validate) and their replay."""
