#!/usr/bin/env ruby
# frozen_string_literal: true

# Runs Formula/iapdoctor.rb's `test do` block outside Homebrew, against a built binary:
#
#   ruby scripts/formula-test.rb BIN_DIR [VERSION]     # BIN_DIR holds `iapdoctor`
#
# Plain Ruby 2.6 (macOS's). A stand-in for the part of Homebrew's Formula class the formula uses: the class-level DSL is
# recorded and ignored; `shell_output`, `assert_match`, `testpath`, `bin` and `version` behave as
# Homebrew's do (shell_output checks the command's exit status). Exit 0 when the test passes.
require "pathname"
require "tmpdir"

class Formula
  class << self
    attr_reader :test_block

    def test(&block)
      @test_block = block
    end

    def method_missing(*); end

    def respond_to_missing?(*)
      true
    end
  end

  Version = Struct.new(:to_s) do
    def head?
      to_s.start_with?("HEAD")
    end
  end

  attr_reader :bin, :testpath, :version

  def initialize(bin, testpath, version)
    @bin = Pathname(bin)
    @testpath = Pathname(testpath)
    @version = Version.new(version)
  end

  # As Homebrew's: the command's standard output, after checking its exit status.
  def shell_output(cmd, result = 0)
    puts "==> #{cmd}"
    output = `#{cmd}`
    raise "`#{cmd}` exited #{$?.exitstatus}, expected #{result}:\n#{output}" unless $?.exitstatus == result

    output
  end

  def assert_match(expected, actual)
    matched = expected.is_a?(Regexp) ? expected.match?(actual) : actual.include?(expected.to_s)
    raise "expected #{expected.inspect} in:\n#{actual}" unless matched
  end
end

bin_dir, version = ARGV
abort "usage: ruby scripts/formula-test.rb BIN_DIR [VERSION]" unless bin_dir
version ||= `#{File.join(bin_dir, "iapdoctor")} --version`.strip
load File.expand_path("../Formula/iapdoctor.rb", __dir__)
Dir.mktmpdir("formula-test") do |testpath|
  Dir.chdir(testpath) { Iapdoctor.new(bin_dir, testpath, version).instance_exec(&Iapdoctor.test_block) }
end
puts "formula test: passed"
