# D-Football strategies in R that try to take more than a bot's limits
# (tests/bots/external/test_rlang.py runs them under a plain user's: no cgroup, so RLIMIT_NPROC 4
# with bwrap's first process counted, and 167 open files a process). Each says in its log what it
# got, and plays on: a fork refused, or a file, is no error of its own.

# The processes this sandbox has now (its /proc shows its own only).
processes <- function() length(grep("^[0-9]+$", list.files("/proc"), value = TRUE))

bombed <- FALSE

# A fork bomb through system(): a shell function that pipes itself into itself in the background,
# then R's own forks (parallel::mcparallel, base R's), 50 of them; the most processes seen meanwhile.
fork_bomb <- function(game) {
  if (!bombed) {
    bombed <<- TRUE
    most <- processes()
    system("b() { b | b & }; b", wait = FALSE)
    forked <- 0
    for (i in 1:50) {
      job <- tryCatch(parallel::mcparallel(Sys.sleep(30)), error = function(e) NULL)
      if (!is.null(job)) forked <- forked + 1
      most <- max(most, processes())
    }
    until <- Sys.time() + 1
    while (Sys.time() < until) {
      most <- max(most, processes())
      Sys.sleep(0.01)
    }
    message("R forks: ", forked, " of 50")
    message("processes seen at most: ", most)
  }
  valid_moves(game)[[1]]
}

opened <- FALSE

# Thousands of open files: R's own connections (R stops them at 128 itself), then a shell (in
# system()'s own process: exec) that opens /dev/null 5000 times, keeping each; how many each got.
many_files <- function(game) {
  if (!opened) {
    opened <<- TRUE
    kept <- list()
    for (i in 1:5000) {
      con <- tryCatch(file("/dev/null", "r"), error = function(e) NULL)
      if (is.null(con)) break
      kept[[length(kept) + 1]] <- con
    }
    message("R connections: ", length(kept))
    for (con in kept) close(con)
    system(paste("exec bash -c 'n=0; while [ $n -lt 5000 ] && exec {fd}</dev/null; do n=$((n + 1)); done 2>/dev/null;",
                 "echo shell files: $n'"))
    message("open files: ", length(list.files("/proc/self/fd")))
  }
  valid_moves(game)[[1]]
}
