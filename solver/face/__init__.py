"""The face (layer 7): the command line, pictures (``dipsat.face.render``), the HTML report and
progress display."""
