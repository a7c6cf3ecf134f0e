-- Revokes a grant: KEYS[1] is its index.
revoke(KEYS[1])
return 1
