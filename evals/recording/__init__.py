"""Making new tasks: drive a site through an action script and record video, assets and checkpoints."""
