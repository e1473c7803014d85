"""A corpus of two topics that share no entity: stargazing in an invented valley, and an
invented cheese trade. Used by the community and global-question tests."""

SKY = {
    "sky-kessa.md": (
        "# Kessa Observatory\n\nKessa Observatory is an observatory in the Ortel Valley. "
        "Kessa Observatory operates the Mirelle Telescope. "
        "Astronomer Vanya Holt directs Kessa Observatory."
    ),
    "sky-mirelle.md": (
        "# Mirelle Telescope\n\nThe Mirelle Telescope is a reflecting telescope at Kessa Observatory. "
        "Vanya Holt used the Mirelle Telescope to find the Dauna Comet. "
        "The Mirelle Telescope has a mirror ground in the Ortel Valley."
    ),
    "sky-dauna.md": (
        "# Dauna Comet\n\nThe Dauna Comet is a comet found by Vanya Holt. "
        "The Dauna Comet was first seen from Kessa Observatory. "
        "The Dauna Comet returns every 61 years."
    ),
    "sky-holt.md": (
        "# Vanya Holt\n\nVanya Holt is an astronomer of the Ortel Valley. "
        "Vanya Holt found the Dauna Comet with the Mirelle Telescope. "
        "Vanya Holt directs Kessa Observatory."
    ),
}
CHEESE = {
    "cheese-brannock.md": (
        "# Brannock Cheese\n\nBrannock Cheese is a hard cheese made by Tolvar Dairy. "
        "Brannock Cheese is aged in the Seffin Caves. "
        "Cheesemaker Oda Prell created Brannock Cheese."
    ),
    "cheese-tolvar.md": (
        "# Tolvar Dairy\n\nTolvar Dairy is a dairy in Quenmark. "
        "Tolvar Dairy makes Brannock Cheese. "
        "Oda Prell founded Tolvar Dairy."
    ),
    "cheese-seffin.md": (
        "# Seffin Caves\n\nThe Seffin Caves are limestone caves near Quenmark. "
        "Tolvar Dairy ages Brannock Cheese in the Seffin Caves. "
        "Oda Prell bought the Seffin Caves."
    ),
    "cheese-prell.md": (
        "# Oda Prell\n\nOda Prell is a cheesemaker from Quenmark. "
        "Oda Prell founded Tolvar Dairy and created Brannock Cheese. "
        "Oda Prell ages cheese in the Seffin Caves."
    ),
}
SKY_NAMES = {"Kessa Observatory", "Mirelle Telescope", "Dauna Comet", "Vanya Holt"}
CHEESE_NAMES = {"Brannock Cheese", "Tolvar Dairy", "Seffin Caves", "Oda Prell"}
