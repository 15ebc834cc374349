// A program that runs a check imports IAPDoctor alone and sees every stage's public API.
@_exported import Formats
@_exported import Model
@_exported import Loaders
@_exported import RuleEngine
@_exported import Reporters
@_exported import ZIPReader
