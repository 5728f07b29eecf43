# A student's solution for the STATS 306 D-Football contest, as handed in: the notebook's first
# cell (library(tidyverse), source("d_football.R")), then my_strategy and its helpers, using the
# course's d_football.R functions and the tidyverse's lead().

library(tidyverse)
source("d_football.R")

# How many moves the side to move has after Michigan plays square m (from Michigan's side).
replies_after <- function(game, m) {
    length(valid_moves(make_move(game, m)))
}

jumps_for <- function(b) {
    which(b == 1 & lead(b) == -1 & lead(b, 2) == 0)
}

my_strategy <- function(game) {
    moves <- valid_moves(game)
    jumps <- intersect(jumps_for(game$board), moves)
    if (length(jumps) > 0) return(jumps[[1]])
    # otherwise leave Ohio as few moves as possible; ties to the rearmost player
    left <- sapply(moves, function(m) replies_after(game, m))
    moves[which.min(left)]
}
