"""harnesslib.arm64: the arm64 root (arm64root) and the holders of its mounts (chroot_hold)."""
