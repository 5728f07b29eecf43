# The bot's end of the wire for a strategy written in R: the process that loads a student's .R
# file and answers the arcade (bots/external/rlang.py starts it: Rscript child.R R_DIR PATH
# FUNCTION GAME DEFAULTS, after setting the memory and process caps and moving the answers to
# descriptor 4; the arcade's requests come on 0, standard input, and 1 and 2 are the bot's log). It speaks bots/external/wire.py's messages, as bots/external/child.py does for a
# Python file: "loaded" or "failed" once the file is loaded, then for each "move" a "moved",
# "failed", "invalid", "memory" or "exited"; a "seed" sets R's random numbers, no answer.
#
# The student's file runs as a notebook cell did: in the global environment, with the course's
# API (d_football.R: new_game, valid_moves, make_move, whose_turn, ...) and dplyr attached
# (the notebook's library(tidyverse)). This process's own functions live apart, in an
# environment that sees only base R (not the global one), so a student's function of the same
# name as one of R's (writeLines, say) changes nothing here.

local(envir = new.env(parent = baseenv()), {
  argv <- commandArgs(trailingOnly = TRUE)
  r_dir <- argv[[1]]
  path <- argv[[2]]
  wanted <- argv[[3]]
  game_id <- argv[[4]]
  defaults <- strsplit(argv[[5]], ",", fixed = TRUE)[[1]]
  # A notebook (bots/external/notebook.py read it in the arcade): its strategy cell's code, in a
  # memory file, and the cell's name; the course's rules hold (no library(), no install.packages()).
  code <- if (length(argv) >= 7L) argv[[6]] else path
  cell <- if (length(argv) >= 7L) paste0(basename(path), ", ", argv[[7]]) else basename(path)
  notebook <- length(argv) >= 7L
  sys.source(file.path(r_dir, "json.R"), envir = environment())

  # The requests are read from standard input itself (file("stdin") is C's stdin): no relay
  # process has to wake up before R sees one (under load each wake-up waits for a CPU, on the
  # bot's clock). The answers go through cat: base R cannot write to a descriptor it has not
  # opened, nor open a socket's (the answer channel is a packet socket, bots/external/transport.py).
  requests <- file("stdin", open = "r")
  answers <- pipe("exec cat >&4", open = "w")
  state <- new.env()
  state$moving <- FALSE

  send <- function(kind, ...) {
    writeLines(json_reply(kind, ...), answers, useBytes = TRUE)
    flush(answers)
  }
  one_line <- function(text) {
    text <- gsub("[\r\n\t]+", " ", paste(text, collapse = " "))
    if (nchar(text) > 2000) paste0(substr(text, 1, 2000), "\u2026") else text
  }
  error_text <- function(e) {
    call <- conditionCall(e)
    where <- if (is.null(call)) "" else paste0(" in ", deparse(call, nlines = 1L, width.cutoff = 60L)[[1]])
    one_line(paste0("Error", where, ": ", conditionMessage(e)))
  }
  is_memory <- function(e) grepl("cannot allocate|memory exhausted|failed to map segment", conditionMessage(e))
  # Evaluate expr; on an error, its text (the calls that led to it go to the log under what).
  # Warnings go to the log as they come (this process never returns to R's top level, where
  # they would be shown), unless options(warn = 2) makes them errors.
  guarded <- function(expr, what) {
    calls <- NULL
    value <- withCallingHandlers(
      tryCatch(expr, error = function(e) e),
      error = function(e) calls <<- sys.calls(),
      warning = function(w) {
        if (getOption("warn", 0) < 2) {
          cat(sub("^Error", "Warning", error_text(w)), "\n", sep = "", file = stderr())
          invokeRestart("muffleWarning")
        }
      }
    )
    if (inherits(value, "error")) {
      cat("--- ", what, ": ", conditionMessage(value), "\n", sep = "", file = stderr())
      for (call in utils::head(calls, 40)) cat("  ", deparse(call, nlines = 1L)[[1]], "\n", file = stderr())
    }
    value
  }
  # A quit() from the student's code ends the process: say so first, as exit() does in Python.
  reg.finalizer(state, function(s) if (s$moving) send("exited", detail = "it called quit()"), onexit = TRUE)

  # A student's file often begins as the notebook did: library(tidyverse) and
  # source("d_football.R"). Of the tidyverse only dplyr is installed, so that library call (or
  # require) attaches dplyr, and sourcing a d_football.R that is not in the bot's folder keeps
  # the one loaded; both say so in the log. Any other call is R's own.
  stand_ins <- function(course) {
    tidyverse <- function(call, package, character_only) {
      name <- if (character_only) package else as.character(package)
      if (!identical(name, "tidyverse")) return(FALSE)
      message(call, "(tidyverse): only dplyr of the tidyverse is installed here; it is attached")
      TRUE
    }
    course$library <- function(package, ..., character.only = FALSE) {
      if (!missing(package) && tidyverse("library", substitute(package), character.only))
        return(invisible(.packages()))
      call <- sys.call()
      call[[1]] <- quote(base::library)
      eval(call, parent.frame())
    }
    course$require <- function(package, ..., character.only = FALSE) {
      if (!missing(package) && tidyverse("require", substitute(package), character.only))
        return(invisible(TRUE))
      call <- sys.call()
      call[[1]] <- quote(base::require)
      eval(call, parent.frame())
    }
    # R's session folder (tempdir) is removed once loading is done (see load): a process killed at
    # the end of a match cannot remove it, and outside the sandbox it would stay in /tmp. These
    # make it again when the strategy asks for it.
    course$tempdir <- function(check = FALSE) base::tempdir(check = TRUE)
    course$tempfile <- function(...) {
      base::tempdir(check = TRUE)
      base::tempfile(...)
    }
    course$source <- function(file, ...) {
      if (is.character(file) && length(file) == 1L && basename(file) == "d_football.R" && !file.exists(file)) {
        message("source(\"", file, "\"): the arcade's d_football.R is loaded already")
        return(invisible(NULL))
      }
      call <- sys.call()
      call[[1]] <- quote(base::source)
      eval(call, parent.frame())
    }
    if (notebook) {
      # STATS 306: "You may not use install.packages() or library() to load other packages"
      refuse <- function(name) { force(name); function(...) stop(name, "() is not allowed: tidyverse, base R and d_football.R ",
                                                     "are there (STATS 306's rule)", call. = FALSE)}
      for (name in c("library", "require", "install.packages", "requireNamespace"))
        assign(name, refuse(name), envir = course)
    }
  }

  load <- function() {
    if (game_id != "dfootball") return(send("failed", detail = "R strategies play D-Football only"))
    course <- attach(NULL, name = "d_football")
    sys.source(file.path(r_dir, "d_football.R"), envir = course)
    stand_ins(course)
    loaded <- guarded(suppressPackageStartupMessages(library(dplyr)), "loading dplyr")
    if (inherits(loaded, "error")) {
      # under a small memory cap split over processes, a library that cannot be mapped
      if (is_memory(loaded)) return(send("memory", detail = one_line(conditionMessage(loaded))))
      if (!grepl("there is no package called", conditionMessage(loaded)))
        return(send("failed", detail = paste("loading dplyr:", one_line(conditionMessage(loaded)))))
      return(send("failed", detail = paste("the R package dplyr is missing:",
                                           "apt-get install --no-install-recommends r-cran-dplyr")))
    }
    # cli (which dplyr loads) starts a thread that ticks for its progress bars. The process cap
    # counts threads: where no cgroup holds the bot it has 4 (bwrap's first process, R, the
    # answers' cat), and the thread would leave the strategy no process for a system(). Stopped
    # (a bot shows no progress bar); a cli without that routine keeps it.
    if (isNamespaceLoaded("cli")) {
      stop_ticks <- get0("clic_stop_thread", envir = asNamespace("cli"), inherits = FALSE)
      if (inherits(stop_ticks, "NativeSymbolInfo")) try(.Call(stop_ticks), silent = TRUE)
    }
    # the course's functions and dplyr's used once now, so the first move is not charged for it
    warm <- course$new_game(11)
    invisible(course$make_move(warm, course$valid_moves(warm)[[1]]))
    invisible(dplyr::lead(warm$board, 2))
    if (notebook) setwd(dirname(path))  # the notebook's folder, as source(chdir = TRUE) gives a file
    sourced <- guarded(source(code, local = globalenv(), chdir = !notebook, echo = FALSE), "loading failed")
    if (inherits(sourced, "error")) {
      if (is_memory(sourced)) return(send("memory", detail = conditionMessage(sourced)))
      return(send("failed", detail = sub(code, cell, error_text(sourced), fixed = TRUE)))
    }
    candidates <- if (wanted == defaults[[1]]) defaults else wanted
    for (name in candidates) {
      fn <- get0(name, envir = globalenv(), mode = "function", inherits = FALSE)
      if (!is.null(fn)) break
    }
    if (is.null(fn)) {
      mine <- Filter(function(n) is.function(get(n, envir = globalenv())), ls(globalenv()))
      return(send("failed", detail = paste0(cell, " has no function '", wanted, "'",
                                            if (length(mine)) paste0("; its functions: ", paste(mine, collapse = ", ")))))
    }
    # the file's functions compiled now, as R would compile each on its first call (on the clock)
    for (each in ls(globalenv(), all.names = TRUE)) {
      f <- get(each, envir = globalenv())
      if (is.function(f) && !is.primitive(f))
        assign(each, tryCatch(compiler::cmpfun(f), error = function(e) f), envir = globalenv())
    }
    state$fn <- get(name, envir = globalenv())
    state$name <- name
    invisible(gc())  # loading's garbage collected now, not in the first move
    if (!length(list.files(tempdir(), all.files = TRUE, no.. = TRUE))) unlink(tempdir(), recursive = TRUE)
    send("loaded")
  }

  answer <- function(value) {
    shown <- if (length(value) > 8L) {
      paste("a vector of length", length(value))
    } else {
      one_line(deparse(value, nlines = 1L, width.cutoff = 60L)[[1]])
    }
    if (!is.numeric(value) || is.object(value)) {
      return(send("invalid", detail = paste0(shown, " (", class(value)[[1]], ") is not a square number")))
    }
    if (length(value) != 1L || is.na(value) || !is.finite(value) || value != round(value))
      return(send("invalid", detail = paste0(shown, " is not one square number")))
    send("moved", move = as.numeric(value))
  }

  move <- function(args) {
    if (is.null(state$fn)) return(send("failed", detail = "no function loaded"))
    call_env <- new.env(parent = globalenv())
    assign(state$name, state$fn, envir = call_env)
    assign("game", args[[1]], envir = call_env)
    state$moving <- TRUE
    value <- guarded(eval(call(state$name, as.name("game")), call_env), "the strategy raised")
    state$moving <- FALSE
    if (inherits(value, "error")) {
      if (is_memory(value)) return(send("memory", detail = conditionMessage(value)))
      return(send("failed", detail = error_text(value)))
    }
    answer(value)
  }

  # This file's functions compiled now, and the protocol's path taken once, as R would do it on
  # the first move (on the clock: a few hundred milliseconds).
  for (name in ls(environment())) {
    if (is.function(get(name))) assign(name, compiler::cmpfun(get(name)))
  }
  invisible(json_decode('{"kind":"move","args":[{"board":[1,0,-1],"turn":1,"last_move":[2,1]}],"x":["\\u00e9",null,true]}'))
  invisible(json_reply("moved", move = 1, detail = "\u00e9"))
  load()
  repeat {
    line <- readLines(requests, n = 1L, warn = FALSE)
    if (length(line) == 0L) break  # the arcade closed its end
    request <- json_decode(line)
    kind <- request$kind
    if (identical(kind, "move")) {
      move(request$args)
    } else if (identical(kind, "seed")) {
      set.seed(as.integer(request$seed %% 2147483647))
    } else {
      stop("a ", kind, " message sent to the bot")
    }
    flush(stdout())
  }
})
