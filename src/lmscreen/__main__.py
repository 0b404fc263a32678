from lmscreen.cli import main

main()
