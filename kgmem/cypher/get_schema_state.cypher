// Every index and constraint with its state, to check schema init (read-only SHOW).
// params: -
SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties
RETURN name, type, state, labelsOrTypes, properties
ORDER BY name
