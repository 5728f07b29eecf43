# The file-bot wire's JSON, in base R (the bot's R process has no jsonlite): enough of it for
# the messages the arcade sends (bots/external/wire.py: "seed" and "move", one JSON object a
# line, ASCII only) and for the answers the R process sends back, written exactly as the
# arcade's decoder expects them ({"kind": ..., fields}, ASCII only).
#
# Decoding: an object becomes a named list, an array of numbers a numeric vector (a board, a
# last move), any other array a list, true/false/null TRUE/FALSE/NULL, a number a double (as R
# reads numbers: the course's boards were doubles). Anything else is an error.

json_decode <- function(text) {
  pattern <- paste0('"(?:[^"\\\\]|\\\\.)*"',                     # a string
                    '|-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?',  # a number
                    '|true|false|null|[][{}:,]|[ \t\r\n]+|.')      # the rest (. is an error)
  tokens <- regmatches(text, gregexpr(pattern, text, perl = TRUE))[[1]]
  tokens <- tokens[!grepl("^[ \t\r\n]+$", tokens)]
  number <- grepl("^-?[0-9]", tokens)
  closing <- which(tokens == "]")
  at <- 1L
  # An array of numbers only (a board, a last move: most of a move's request) read in one step:
  # its numbers at every other token up to the first "]", commas between. NULL if it is not one.
  numbers <- function() {
    end <- closing[closing >= at][1L]
    if (is.na(end) || (end - at) %% 2L != 1L) return(NULL)
    values <- seq.int(at, end - 1L, by = 2L)
    commas <- values[-1L] - 1L
    if (!all(number[values]) || !all(tokens[commas] == ",")) return(NULL)
    at <<- end + 1L
    as.numeric(tokens[values])
  }
  peek <- function() if (at <= length(tokens)) tokens[[at]] else ""
  take <- function() { token <- peek(); at <<- at + 1L; token }
  expect <- function(token) if (take() != token) stop("not JSON: expected ", token)
  value <- function() {
    token <- take()
    first <- substr(token, 1L, 1L)
    if (token == "{") {
      out <- list()
      if (peek() == "}") { take(); return(out) }
      repeat {
        key <- take()
        if (substr(key, 1L, 1L) != '"') stop("not JSON: an object's key is no string")
        expect(":")
        item <- value()
        out[json_unescape(key)] <- list(item)
        if (peek() == ",") { take(); next }
        expect("}")
        return(out)
      }
    }
    if (token == "[") {
      out <- list()
      if (peek() == "]") { take(); return(out) }
      fast <- numbers()
      if (!is.null(fast)) return(fast)
      repeat {
        out[length(out) + 1L] <- list(value())
        if (peek() == ",") { take(); next }
        expect("]")
        if (length(out) && all(vapply(out, function(x) is.numeric(x) && length(x) == 1L, TRUE)))
          return(unlist(out))
        return(out)
      }
    }
    if (first == '"') return(json_unescape(token))
    if (grepl("^-?[0-9]", token)) return(as.numeric(token))
    if (token == "true") return(TRUE)
    if (token == "false") return(FALSE)
    if (token == "null") return(NULL)
    stop("not JSON: ", substr(token, 1L, 20L))
  }
  out <- value()
  if (at <= length(tokens)) stop("not JSON: more after the value")
  out
}

# A JSON string token (quotes included) as an R string (UTF-8).
json_unescape <- function(token) {
  body <- substr(token, 2L, nchar(token) - 1L)
  if (!grepl("\\", body, fixed = TRUE)) return(body)
  codes <- utf8ToInt(body)
  out <- integer(0)
  i <- 1L
  simple <- c(b = 8L, f = 12L, n = 10L, r = 13L, t = 9L, '"' = 34L, "\\" = 92L, "/" = 47L)
  while (i <= length(codes)) {
    code <- codes[[i]]
    if (code != 92L) { out <- c(out, code); i <- i + 1L; next }
    letter <- intToUtf8(codes[[i + 1L]])
    if (letter == "u") {
      unit <- strtoi(intToUtf8(codes[(i + 2L):(i + 5L)]), 16L)
      i <- i + 6L
      if (unit >= 0xD800 && unit < 0xDC00 && i + 5L <= length(codes) && codes[[i]] == 92L) {
        low <- strtoi(intToUtf8(codes[(i + 2L):(i + 5L)]), 16L)
        if (!is.na(low) && low >= 0xDC00 && low < 0xE000) {
          unit <- 0x10000 + (unit - 0xD800) * 1024 + (low - 0xDC00)
          i <- i + 6L
        }
      }
      out <- c(out, if (unit >= 0xD800 && unit < 0xE000) 0xFFFD else unit)
    } else {
      out <- c(out, simple[[letter]])
      i <- i + 2L
    }
  }
  intToUtf8(out)
}

# An R string as a JSON string, ASCII only: quotes, backslashes, control and non-ASCII
# characters escaped (text that is not valid UTF-8 is read as Latin-1).
json_string <- function(text) {
  text <- enc2utf8(as.character(text))
  codes <- utf8ToInt(text)
  if (anyNA(codes)) codes <- utf8ToInt(iconv(text, "latin1", "UTF-8"))
  plain <- codes >= 32L & codes < 127L & codes != 34L & codes != 92L
  if (all(plain)) return(paste0('"', intToUtf8(codes), '"'))
  parts <- character(length(codes))
  parts[plain] <- vapply(codes[plain], intToUtf8, "")
  for (i in which(!plain)) {
    code <- codes[[i]]
    parts[[i]] <- if (code == 34L) '\\"' else if (code == 92L) "\\\\" else if (code < 0x10000) {
      sprintf("\\u%04x", code)
    } else {
      code <- code - 0x10000
      sprintf("\\u%04x\\u%04x", 0xD800 + code %/% 1024, 0xDC00 + code %% 1024)
    }
  }
  paste0('"', paste(parts, collapse = ""), '"')
}

# A reply of the given kind, its fields (strings, or whole numbers as R doubles) in order: one
# line of JSON, no newline.
json_reply <- function(kind, ...) {
  fields <- list(...)
  parts <- paste0('"kind":', json_string(kind))
  for (name in names(fields)) {
    item <- fields[[name]]
    text <- if (is.character(item)) json_string(item) else sprintf("%.0f", item)
    parts <- c(parts, paste0(json_string(name), ":", text))
  }
  paste0("{", paste(parts, collapse = ","), "}")
}
