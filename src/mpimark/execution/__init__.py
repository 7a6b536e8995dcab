"""Running the core: MPI implementations, building the core for each, launching it, a study's plan. Never imports storage."""
