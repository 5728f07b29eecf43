# The STATS 306 contest notebook's two example strategies, as the notebook writes them (cells 48
# and 49): random_move draws from R's random numbers, prefer_jumps uses dplyr::lead.

random_move <- function(game) { 
    v <- valid_moves(game)
    v[[sample(length(v), 1)]]
}

prefer_jumps <- function(game) {
    b <- game$board
    m <- which((b == 1) &  # michigan occupies square
               (dplyr::lead(b) == -1) &  # ohio occupies square to right
               (dplyr::lead(b, 2) == 0))  # square two to right is empty
    if (length(m) == 0)
        return(valid_moves(game)[[1]])
    m[[1]]
}
