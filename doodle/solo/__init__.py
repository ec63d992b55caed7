"""`doodle solo`: solo score attack at the terminal (full-screen or typed commands), saves and high scores."""
