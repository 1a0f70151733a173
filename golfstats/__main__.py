from golfstats.cli import main

main()
