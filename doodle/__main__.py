"""`python -m doodle` runs the command line."""

from doodle.cli import main

if __name__ == "__main__":
    main()
