import Screen
