"""(commands of this family are added here)"""
