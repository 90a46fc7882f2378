"""Test support code: a loopback fake Discord server (``fake_discord``)."""
