"""Players that are not humans: the courses' example strategies up to perfect play."""
