# D-Football's course API in R, as the STATS 306 notebook uses it (its d_football.R), written
# from the contest notebook (../../../../shared seeds: the rules, new_game, whose_turn,
# valid_moves, make_move, print_game, play_game, play_repeatedly). A student's R strategy runs
# against these, as it did in the notebook; games/dfootball.py holds the same rules in Python
# (tests/bots/external/test_rlang.py checks that the two agree).
#
# A game is list(board = ..., turn = ...): board holds 1 (Michigan), 0 (empty) and -1 (Ohio)
# for squares 1..2n+1, turn is 1 (Michigan) or -1 (Ohio); make_move adds last_move, the squares
# the piece passed. print_game draws HTML in the notebook; here it prints the board as text.

TEAMS <- c("michigan", "ohio")
TIME_LIMIT <- 0.1  # seconds a strategy may take over a move in play_game: "took >100ms"

# n Michigan players, an empty square, n Ohio players; Michigan to move.
new_game <- function(n) {
  list(board = c(rep(1, n), 0, rep(-1, n)), turn = 1)
}

# "michigan" or "ohio": TEAMS[turn], -1 leaving "ohio" as R's negative index does.
whose_turn <- function(game) {
  TEAMS[game$turn]
}

# The squares (ascending) whose piece of the team to move can step into the empty square ahead
# or jump the one opposing piece ahead into the empty square beyond; integer(0) when none.
valid_moves <- function(game) {
  t <- game$turn
  b <- game$board * t  # the mover's pieces are 1, whichever team moves
  size <- length(b)
  ahead <- function(k) {  # the square k ahead of each square in the mover's direction
    at <- seq_len(size) + k * t
    out <- rep(NA_real_, size)
    inside <- at >= 1 & at <= size
    out[inside] <- b[at[inside]]
    out
  }
  one <- ahead(1)
  two <- ahead(2)
  which(b == 1 & !is.na(one) & (one == 0 | (one == -1 & !is.na(two) & two == 0)))
}

# The game after the piece on square moves: the board updated (a jumped piece removed), the
# turn passed, last_move the squares it passed. An error if square is not a valid move.
make_move <- function(game, square) {
  stopifnot(length(square) == 1, square %in% valid_moves(game))
  b <- game$board
  t <- game$turn
  b[square] <- 0
  if (b[square + t] == 0) {
    b[square + t] <- t
    last <- c(square, square + t)
  } else {
    b[square + t] <- 0
    b[square + 2 * t] <- t
    last <- c(square, square + t, square + 2 * t)
  }
  list(board = b, turn = -t, last_move = last)
}

# The game as text (the notebook drew HTML): the heading, the pieces (M, O, . empty, m/o the
# ghost of a piece jumped on the last move, the last move's squares in brackets), and the square
# numbers, valid ones marked with *.
print_game <- function(game) {
  b <- game$board
  valid <- valid_moves(game)
  team <- if (game$turn == 1) "Michigan" else "Ohio"
  cat(team, if (length(valid)) " to move" else " loses!", "\n", sep = "")
  last <- game$last_move
  glyphs <- c("O", ".", "M")[b + 2]
  if (length(last) == 3) glyphs[last[[2]]] <- if (game$turn == 1) "m" else "o"
  width <- max(3, nchar(length(b)) + 2)
  cells <- ifelse(seq_along(b) %in% last, paste0("[", glyphs, "]"), paste0(" ", glyphs, " "))
  numbers <- ifelse(seq_along(b) %in% valid, paste0(seq_along(b), "*"), as.character(seq_along(b)))
  cat(formatC(cells, width = width, flag = "-"), "\n", sep = "")
  cat(formatC(numbers, width = width, flag = "-"), "\n\n", sep = "")
  invisible(game)
}

# One game, mi_strategy as Michigan and oh_strategy as Ohio, n players a side: the winner,
# "michigan" or "ohio". Each strategy sees the game from Michigan's side (for Ohio the board
# reversed and negated, turn 1) and answers a square there. A strategy that throws an error,
# takes more than 100 ms, or returns a square that is not valid loses, with a warning.
play_game <- function(mi_strategy, oh_strategy, n = 5, disp = F) {
  game <- new_game(n)
  if (disp && n > 5) {
    warning("Refusing to display output for n > 5")
    disp <- F
  }
  if (disp) print_game(game)
  repeat {
    team <- whose_turn(game)
    if (length(valid_moves(game)) == 0) return(whose_turn(list(turn = -game$turn)))
    seen <- game
    strategy <- mi_strategy
    if (game$turn == -1) {
      seen <- list(board = -rev(game$board), turn = 1)
      strategy <- oh_strategy
    }
    start <- proc.time()[["elapsed"]]
    move <- tryCatch(strategy(seen), error = function(e) e)
    winner <- whose_turn(list(turn = -game$turn))
    if (inherits(move, "error")) {
      warning(team, " strategy produced an error")
      return(winner)
    }
    if (proc.time()[["elapsed"]] - start > TIME_LIMIT) {
      warning(team, " strategy took >100ms to return a move")
      return(winner)
    }
    if (!isTRUE(length(move) == 1 && move %in% valid_moves(seen))) {
      warning(team, " strategy returned an invalid move")
      return(winner)
    }
    if (game$turn == -1) move <- 2 * n + 2 - move
    game <- make_move(game, move)
    if (disp) print_game(game)
  }
}

# 2k games of strategy1 against strategy2, each Michigan k times (the random numbers seeded
# with 1 first): the wins of each.
play_repeatedly <- function(strategy1, strategy2, k = 100, n = 5) {
  set.seed(1)
  wins <- c(strategy1 = 0, strategy2 = 0)
  for (i in seq_len(k)) {
    if (play_game(strategy1, strategy2, n) == "michigan") {
      wins[["strategy1"]] <- wins[["strategy1"]] + 1
    } else {
      wins[["strategy2"]] <- wins[["strategy2"]] + 1
    }
    if (play_game(strategy2, strategy1, n) == "michigan") {
      wins[["strategy2"]] <- wins[["strategy2"]] + 1
    } else {
      wins[["strategy1"]] <- wins[["strategy1"]] + 1
    }
  }
  wins
}
