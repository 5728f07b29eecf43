# D-Football strategies in R that break the contest's rules, the notebook's own examples first
# (cells 58-60): each must forfeit with the course's words.

# A student's own functions named as R's that the bot's process itself uses to answer: they
# must change nothing there (every test of this file plays with them defined).
writeLines <- function(...) stop("a student's own writeLines")
flush <- function(...) stop("a student's own flush")
readLines <- function(...) character(0)
send <- function(...) stop("a student's own send")

# always return the invalid move -1
invalid_move <- function(game) {
    -1
}

# take too long
slow <- function(game) {
    Sys.sleep(1)  # sleep 1 second before returning
    valid_moves(game)[[1]]
}

# function throws an error when executed
raises <- function(game) {
    aoeu
}

# answers that are no square number, one a game (the process lives on after an invalid move)
wrong <- list(function(v) c(v, 0), function(v) as.character(v[[1]]), function(v) NULL,
              function(v) NA_real_, function(v) v[[1]] + 0.5, function(v) TRUE,
              function(v) seq_len(1e7), function(v) factor(v[[1]]))
calls <- 0
wrong_answers <- function(game) {
    calls <<- calls + 1
    wrong[[(calls - 1) %% length(wrong) + 1]](valid_moves(game))
}

# an integer is as good as a double, as in R
integer_move <- function(game) as.integer(valid_moves(game)[[1]])

quits <- function(game) quit(status = 3)

hogs_memory <- function(game) {
    x <- numeric(4e8)  # 3.2 GB, over the 1 GiB cap
    valid_moves(game)[[1]]
}

chatty <- function(game) {
    print(game)
    cat("thinking\n")
    message("a message")
    warning("a warning")
    system("echo from a subprocess; echo to stderr >&2")
    valid_moves(game)[[1]]
}

# writes a file in R's session folder each move
uses_tempfile <- function(game) {
    file <- tempfile()
    cat("a note\n", file = file)
    stopifnot(file.exists(file))
    valid_moves(game)[[1]]
}
