import RQLTools

RQLCommand.main()
